export { collectEpubs, type ImportSource, type ImportSummary, importAll } from './commands/import.command.js';
export { demoInputs } from './demo/demo-catalogue.js';
