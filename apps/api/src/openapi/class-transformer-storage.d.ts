// class-transformer keeps the @Type() metadata in a module its package does not type; its types are here.
declare module 'class-transformer/cjs/storage' {
  export { defaultMetadataStorage } from 'class-transformer/types/storage';
}
