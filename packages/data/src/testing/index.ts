export { migrateRacingDrops, type TestDialect, testDialects, testMigrator } from './dialects.js';
export { sampleBook, sampleUser } from './fixtures.js';
export { sentToPostgres, statementsOf } from './statements.js';
export { TcpRelay } from './tcp-relay.js';
export { refusingPostgresUrl, silentPostgres } from './unreachable.js';
