/**
 * JSON Schema (2020-12) of what the OPDS 2.0 specification requires of feeds and publications, and
 * the Readium Web Publication Manifest of their metadata, written for these tests. The community's
 * published schemas are not vendored: their repository states no licence. These rules are theirs:
 *
 * - a feed has metadata with a title, links with a `self` link, and navigation, publications or groups;
 * - a navigation link has a title; every link has an href, `templated` links are URI templates;
 * - a publication has metadata with a title, links with a `self` link and an acquisition link, and
 *   images, one of them JPEG, PNG or GIF;
 * - identifiers and `@type` are URIs, times are date-times, a language is a BCP 47 tag, contributors
 *   and subjects are strings or objects with a name, pages and counts are positive integers.
 */
const ACQUISITION_RELS = [
  'preview',
  'http://opds-spec.org/acquisition',
  'http://opds-spec.org/acquisition/buy',
  'http://opds-spec.org/acquisition/open-access',
  'http://opds-spec.org/acquisition/borrow',
  'http://opds-spec.org/acquisition/sample',
  'http://opds-spec.org/acquisition/subscribe',
];

/** A list of links holding one whose rel (a string or a list) is one of `rels`. */
const hasRel = (rels: string[]) => ({
  contains: {
    type: 'object',
    properties: { rel: { anyOf: [{ enum: rels }, { type: 'array', contains: { enum: rels } }] } },
    required: ['rel'],
  },
});

const languageMap = {
  anyOf: [{ type: 'string' }, { type: 'object', additionalProperties: { type: 'string' } }],
};

export const opds2Schema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'urn:readlib:test:opds2',
  $defs: {
    link: {
      type: 'object',
      required: ['href'],
      properties: {
        href: { type: 'string' },
        type: { type: 'string' },
        title: { type: 'string' },
        rel: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
        templated: { type: 'boolean' },
        properties: {
          type: 'object',
          properties: { numberOfItems: { type: 'integer', minimum: 0 } },
        },
      },
      // a templated href is a URI template, any other an absolute URI
      anyOf: [
        {
          required: ['templated'],
          properties: { templated: { const: true }, href: { format: 'uri-template' } },
        },
        { properties: { templated: { const: false }, href: { format: 'uri' } } },
      ],
    },
    links: { type: 'array', items: { $ref: '#/$defs/link' } },
    contributor: {
      anyOf: [
        { type: 'string' },
        { $ref: '#/$defs/contributorObject' },
        { type: 'array', items: { anyOf: [{ type: 'string' }, { $ref: '#/$defs/contributorObject' }] } },
      ],
    },
    contributorObject: {
      type: 'object',
      required: ['name'],
      properties: {
        name: languageMap,
        identifier: { type: 'string', format: 'uri' },
        links: { $ref: '#/$defs/links' },
      },
    },
    subjectObject: {
      type: 'object',
      required: ['name'],
      properties: {
        name: languageMap,
        code: { type: 'string' },
        scheme: { type: 'string', format: 'uri' },
        links: { $ref: '#/$defs/links' },
      },
    },
    publication: {
      type: 'object',
      required: ['metadata', 'links', 'images'],
      properties: {
        metadata: {
          type: 'object',
          required: ['title'],
          properties: {
            '@type': { type: 'string', format: 'uri' },
            identifier: { type: 'string', format: 'uri' },
            title: languageMap,
            modified: { type: 'string', format: 'date-time' },
            language: {
              anyOf: [
                { type: 'string', pattern: '^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$' },
                { type: 'array', items: { type: 'string', pattern: '^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$' } },
              ],
            },
            author: { $ref: '#/$defs/contributor' },
            publisher: { $ref: '#/$defs/contributor' },
            description: { type: 'string' },
            subject: {
              anyOf: [
                { type: 'string' },
                { $ref: '#/$defs/subjectObject' },
                { type: 'array', items: { anyOf: [{ type: 'string' }, { $ref: '#/$defs/subjectObject' }] } },
              ],
            },
          },
        },
        links: { $ref: '#/$defs/links', allOf: [hasRel(['self']), hasRel(ACQUISITION_RELS)] },
        images: {
          $ref: '#/$defs/links',
          minItems: 1,
          contains: {
            type: 'object',
            properties: { type: { enum: ['image/jpeg', 'image/png', 'image/gif'] } },
            required: ['type'],
          },
        },
      },
    },
    feed: {
      type: 'object',
      required: ['metadata', 'links'],
      anyOf: [{ required: ['publications'] }, { required: ['navigation'] }, { required: ['groups'] }],
      properties: {
        metadata: {
          type: 'object',
          required: ['title'],
          properties: {
            title: languageMap,
            identifier: { type: 'string', format: 'uri' },
            modified: { type: 'string', format: 'date-time' },
            itemsPerPage: { type: 'integer', minimum: 1 },
            currentPage: { type: 'integer', minimum: 1 },
            numberOfItems: { type: 'integer', minimum: 0 },
          },
        },
        links: { $ref: '#/$defs/links', ...hasRel(['self']) },
        navigation: { type: 'array', items: { allOf: [{ $ref: '#/$defs/link' }, { required: ['title'] }] } },
        publications: { type: 'array', items: { $ref: '#/$defs/publication' } },
      },
    },
  },
} as const;
