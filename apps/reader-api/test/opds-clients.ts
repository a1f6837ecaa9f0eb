import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { SaxesParser } from 'saxes';
import { opds2Schema } from './opds2-schema.js';

/**
 * The OPDS client library of Readium (r2-opds-js, what Thorium reads catalogues with): OPDS 1 through
 * @xmldom/xmldom and its XML mapper, OPDS 2 through its JSON mapper. CommonJS, with decorators that
 * register converters globally, hence require and the one-time init.
 */
const require = createRequire(import.meta.url);
const { DOMParser } = require('@xmldom/xmldom') as typeof import('@xmldom/xmldom');
const { XML } = require('r2-utils-js/dist/es8-es2017/src/_utils/xml-js-mapper') as {
  XML: { deserialize<T>(doc: unknown, type: new () => T): T };
};
const { TaJsonDeserialize } = require('r2-lcp-js/dist/es8-es2017/src/serializable') as {
  TaJsonDeserialize<T>(json: unknown, type: new () => T): T;
};
const { OPDS } =
  require('r2-opds-js/dist/es8-es2017/src/opds/opds1/opds.js') as typeof import('r2-opds-js/dist/es8-es2017/src/opds/opds1/opds.js');
const { Entry } =
  require('r2-opds-js/dist/es8-es2017/src/opds/opds1/opds-entry.js') as typeof import('r2-opds-js/dist/es8-es2017/src/opds/opds1/opds-entry.js');
const { OPDSFeed } =
  require('r2-opds-js/dist/es8-es2017/src/opds/opds2/opds2.js') as typeof import('r2-opds-js/dist/es8-es2017/src/opds/opds2/opds2.js');
const { OPDSPublication } =
  require('r2-opds-js/dist/es8-es2017/src/opds/opds2/opds2-publication.js') as typeof import('r2-opds-js/dist/es8-es2017/src/opds/opds2/opds2-publication.js');
const { initGlobalConverters_OPDS } = require('r2-opds-js/dist/es8-es2017/src/opds/init-globals') as {
  initGlobalConverters_OPDS(): void;
};
const { initGlobalConverters_GENERIC } = require('r2-shared-js/dist/es8-es2017/src/init-globals') as {
  initGlobalConverters_GENERIC(): void;
};
initGlobalConverters_OPDS();
initGlobalConverters_GENERIC();

export type Opds1Feed = InstanceType<typeof OPDS>;
export type Opds1Entry = InstanceType<typeof Entry>;
export type Opds2Feed = InstanceType<typeof OPDSFeed>;
export type Opds2Publication = InstanceType<typeof OPDSPublication>;

/**
 * Throws unless the text is well-formed XML 1.0 with namespaces (saxes: a conforming, non-validating
 * parser that refuses what XML forbids, control characters included; xmldom forgives them).
 */
export function assertWellFormed(xml: string): void {
  const parser = new SaxesParser({ xmlns: true });
  let failure: Error | undefined;
  parser.on('error', (err) => {
    failure ??= err;
  });
  parser.write(xml).close();
  if (failure) throw failure;
}

function dom(xml: string) {
  assertWellFormed(xml);
  return new DOMParser({
    // warnings (a U+FFFD in the text) are not faults of the document
    onError: (level, message) => {
      if (level !== 'warning') throw new Error(`${level}: ${message}`);
    },
  }).parseFromString(xml, 'application/xml');
}

/** An OPDS 1 feed as Readium's client reads it. */
export const readOpds1Feed = (xml: string): Opds1Feed => XML.deserialize(dom(xml), OPDS);

/** An OPDS 1 entry document as Readium's client reads it. */
export const readOpds1Entry = (xml: string): Opds1Entry => XML.deserialize(dom(xml), Entry);

/** An OPDS 2 feed as Readium's client reads it. */
export const readOpds2Feed = (json: unknown): Opds2Feed => TaJsonDeserialize(json, OPDSFeed);

export const readOpds2Publication = (json: unknown): Opds2Publication =>
  TaJsonDeserialize(json, OPDSPublication);

const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats.default(ajv);
ajv.addSchema(opds2Schema);
const feedValidator = ajv.getSchema('urn:readlib:test:opds2#/$defs/feed')!;
const publicationValidator = ajv.getSchema('urn:readlib:test:opds2#/$defs/publication')!;

/** The schema's complaints about an OPDS 2 feed ([] when valid). */
export function opds2FeedErrors(json: unknown): string[] {
  return feedValidator(json) ? [] : (feedValidator.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

/** The schema's complaints about an OPDS 2 publication ([] when valid). */
export function opds2PublicationErrors(json: unknown): string[] {
  return publicationValidator(json)
    ? []
    : (publicationValidator.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}
