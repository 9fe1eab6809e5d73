import { promises as fs } from 'node:fs';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { makeTempDir } from '../../helpers/testServer';

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverConstructor = new (options: Record<string, unknown>) => S3rverInstance;

// s3rver ships no types; this is the part the tests use.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('s3rver') as S3rverConstructor;

export const TEST_BUCKET = 'kanban-attachments';
/** s3rver accepts this key pair (its documented defaults). */
const DEFAULT_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

interface S3rverAccounts {
  DUMMY_ACCOUNT: { createKeyPair(accessKeyId: string, secretAccessKey: string): void };
}

/** Make s3rver accept another key pair (its account registry is process-wide). */
function allowCredentials(credentials: { accessKeyId: string; secretAccessKey: string }): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const accounts = require('s3rver/lib/models/account') as S3rverAccounts;
  accounts.DUMMY_ACCOUNT.createKeyPair(credentials.accessKeyId, credentials.secretAccessKey);
}

export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** Environment for the provider: bucket, endpoint, path style, region and credentials. */
  env: Record<string, string>;
  client: S3Client;
  objectExists(key: string): Promise<boolean>;
  keys(prefix?: string): Promise<string[]>;
  close(): Promise<void>;
}

/**
 * A real S3-compatible server (s3rver) on loopback with one bucket, storing under a temp folder.
 * `credentials` picks the key pair the service gets in its environment (s3rver's default otherwise).
 */
export async function startTestS3(credentials = DEFAULT_CREDENTIALS): Promise<TestS3> {
  if (credentials !== DEFAULT_CREDENTIALS) allowCredentials(credentials);
  const directory = await makeTempDir('kanban-s3-');
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: TEST_BUCKET }],
  });
  const address = await server.run();
  const endpoint = `http://127.0.0.1:${address.port}`;
  const client = new S3Client({ endpoint, forcePathStyle: true, region: 'us-east-1', credentials });
  return {
    endpoint,
    bucket: TEST_BUCKET,
    env: {
      SVC_S3_BUCKET: TEST_BUCKET,
      SVC_S3_ENDPOINT: endpoint,
      SVC_S3_FORCE_PATH_STYLE: 'true',
      SVC_S3_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    },
    client,
    async objectExists(key) {
      try {
        await client.send(new HeadObjectCommand({ Bucket: TEST_BUCKET, Key: key }));
        return true;
      } catch (error) {
        if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
        throw error;
      }
    },
    async keys(prefix = '') {
      const page = await client.send(new ListObjectsV2Command({ Bucket: TEST_BUCKET, Prefix: prefix }));
      return (page.Contents ?? []).map((o) => o.Key ?? '').sort();
    },
    async close() {
      client.destroy();
      await server.close();
      await fs.rm(path.resolve(directory), { recursive: true, force: true });
    },
  };
}

/** Set environment variables for the duration of a test; the returned function puts the old values back. */
export function withEnv(values: Record<string, string | undefined>): () => void {
  const saved = Object.fromEntries(Object.keys(values).map((key) => [key, process.env[key]]));
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  return () => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  };
}
