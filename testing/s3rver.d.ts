// The few parts of @20minutes/s3rver (a maintained fork of s3rver, without its own types) that testing/s3.ts uses.
declare module '@20minutes/s3rver' {
  import type { AddressInfo } from 'node:net';

  interface S3rverOptions {
    address?: string;
    port?: number;
    directory: string;
    silent?: boolean;
    configureBuckets?: { name: string; configs?: string[] }[];
  }

  export default class S3rver {
    constructor(options: S3rverOptions);
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
    store: {
      listObjects(bucket: string, options: { maxKeys?: number }): Promise<{ objects: { key: string }[] }>;
    };
  }
}
