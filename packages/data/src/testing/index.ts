export { type TestDialect, testDialects, testMigrator } from './dialects.js';
export { sampleBook, sampleUser } from './fixtures.js';
export { refusingPostgresUrl, silentPostgres } from './unreachable.js';
