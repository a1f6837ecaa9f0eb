import zlib from 'node:zlib';

export interface RawZipEntry {
  name: string;
  data?: Buffer | string;
  /** 0 stored, 8 deflated (default; `mimetype` should be stored). */
  method?: 0 | 8;
  /** External attributes; the high 16 bits hold the Unix mode. */
  externalAttr?: number;
  /** Override the uncompressed size written in the headers (to forge lying entries). */
  declaredSize?: number;
  flags?: number;
  /** Name bytes written as they are, without the UTF-8 flag (bit 11); `name` is then only a label. */
  rawName?: Buffer;
}

const UTF8_NAMES = 0x0800;
const MADE_BY_UNIX = (3 << 8) | 20;
const DOS_TIME = 0;
const DOS_DATE = ((2024 - 1980) << 9) | (1 << 5) | 1;

/**
 * A minimal ZIP writer with full control over every header field, which adm-zip does not give
 * (it rewrites names, sizes and attributes); hostile archives need exactly those fields forged.
 */
export function writeZip(entries: RawZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = entry.rawName ?? Buffer.from(entry.name, 'utf8');
    const data =
      typeof entry.data === 'string' ? Buffer.from(entry.data, 'utf8') : (entry.data ?? Buffer.alloc(0));
    const method = entry.method ?? 8;
    const body = method === 8 ? zlib.deflateRawSync(data) : data;
    const crc = zlib.crc32(data) >>> 0;
    const size = entry.declaredSize ?? data.length;
    const flags = entry.rawName ? (entry.flags ?? 0) & ~UTF8_NAMES : (entry.flags ?? 0) | UTF8_NAMES;

    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(DOS_TIME, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, name, body);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(MADE_BY_UNIX, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(DOS_TIME, 12);
    central.writeUInt16LE(DOS_DATE, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE((entry.externalAttr ?? 0o100644 << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}
