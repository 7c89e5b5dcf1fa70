export * from './api-key';
export * from './workspaces.service';
