export { type AdminDeps, buildApp } from './app.js';
export { epubLimits } from './plugins/context.plugin.js';
export { type AdminServer, operatorNotice, type StartOptions, startAdminServer } from './start.js';
