/** Every request body, one schema each: it validates (ajv), documents (OpenAPI) and types the handler. */
export * from './tasks';
export * from './boards';
export * from './cardNotes';
export * from './agents';
export * from './workspace';
export * from './webhooks';
export * from './bulk';
export * from './dataMoves';
export * from './views';
