import type { Readable } from 'node:stream';
import type * as S3 from '@aws-sdk/client-s3';
import type { AttachmentPayload, AttachmentStore, CardRef } from '../attachmentStore';

export interface S3Settings {
  bucket: string;
  region: string;
  /** For S3-compatible servers (MinIO, LocalStack); AWS itself needs none. */
  endpoint?: string;
  forcePathStyle: boolean;
  /** Optional key prefix, so one bucket can serve several workspaces. */
  prefix: string;
}

/** Why the S3 provider could not start; `setting` names what a user should look at. */
export class S3OpenError extends Error {
  constructor(
    message: string,
    readonly setting?: string,
  ) {
    super(message);
  }
}

type S3Module = typeof S3;

/** The AWS SDK is required only when the S3 provider is configured. */
function loadS3(): S3Module {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require('@aws-sdk/client-s3') as S3Module;
  } catch (error) {
    throw new S3OpenError(
      `the module @aws-sdk/client-s3 cannot be loaded (${(error as Error).message.split('\n')[0]})`,
    );
  }
}

function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
}

function isNotFound(error: unknown): boolean {
  const name = (error as { name?: string })?.name;
  return statusOf(error) === 404 || name === 'NotFound' || name === 'NoSuchKey';
}

/** What a failed bucket check means, naming the setting to fix. */
function explain(error: unknown, settings: S3Settings): S3OpenError {
  const e = error as { name?: string; message?: string; code?: string };
  const cause = `${e.name ?? 'Error'}: ${e.message || e.code || 'no details'}`;
  const status = statusOf(error);
  if (status === 404 || e.name === 'NoSuchBucket' || e.name === 'NotFound') {
    return new S3OpenError(`the bucket "${settings.bucket}" does not exist (${cause})`, 'bucket');
  }
  if (
    status === 403 ||
    e.name === 'CredentialsProviderError' ||
    e.name === 'InvalidAccessKeyId' ||
    e.name === 'SignatureDoesNotMatch'
  ) {
    return new S3OpenError(
      `no access to the bucket "${settings.bucket}": check the credentials in AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY or the AWS profile (${cause})`,
      'credentials',
    );
  }
  if (status === undefined) {
    return new S3OpenError(`cannot reach ${settings.endpoint ?? `S3 in ${settings.region}`} (${cause})`, 'endpoint');
  }
  return new S3OpenError(`the bucket "${settings.bucket}" cannot be used (HTTP ${status}, ${cause})`, 'bucket');
}

/**
 * `attachment.storage: s3`: one object per file, key `<prefix><boardId>/<cardId>/<filename>`.
 * Credentials come from the AWS SDK's own chain (environment, profile, instance role), never from
 * `.kanban.json`. Downloads stream the object body straight to the client.
 */
export class S3AttachmentStore implements AttachmentStore {
  readonly provider = 's3';

  private constructor(
    private readonly sdk: S3Module,
    private readonly client: S3.S3Client,
    readonly settings: S3Settings,
  ) {}

  static async open(settings: S3Settings): Promise<S3AttachmentStore> {
    const sdk = loadS3();
    const client = new sdk.S3Client({
      region: settings.region,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      forcePathStyle: settings.forcePathStyle,
    });
    try {
      await client.send(new sdk.HeadBucketCommand({ Bucket: settings.bucket }));
    } catch (error) {
      client.destroy();
      throw explain(error, settings);
    }
    return new S3AttachmentStore(sdk, client, settings);
  }

  describe(): Record<string, unknown> {
    const { bucket, region, endpoint, forcePathStyle, prefix } = this.settings;
    return { bucket, region, endpoint: endpoint ?? null, forcePathStyle, prefix };
  }

  private folder(card: CardRef): string {
    return `${this.settings.prefix}${card.boardId}/${card.id}/`;
  }

  private key(card: CardRef, filename: string): string {
    return this.folder(card) + filename;
  }

  async put(card: CardRef, filename: string, data: Buffer, contentType?: string): Promise<void> {
    await this.client.send(
      new this.sdk.PutObjectCommand({
        Bucket: this.settings.bucket,
        Key: this.key(card, filename),
        Body: data,
        ContentLength: data.length,
        ...(contentType ? { ContentType: contentType } : {}),
      }),
    );
  }

  async get(card: CardRef, filename: string): Promise<AttachmentPayload | null> {
    const Key = this.key(card, filename);
    let head: S3.HeadObjectCommandOutput;
    try {
      head = await this.client.send(new this.sdk.HeadObjectCommand({ Bucket: this.settings.bucket, Key }));
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
    return {
      ...(head.ContentLength !== undefined ? { size: head.ContentLength } : {}),
      ...(head.ContentType ? { contentType: head.ContentType } : {}),
      stream: async () => {
        const object = await this.client.send(new this.sdk.GetObjectCommand({ Bucket: this.settings.bucket, Key }));
        return object.Body as Readable;
      },
    };
  }

  async remove(card: CardRef, filename: string): Promise<void> {
    await this.client.send(
      new this.sdk.DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.key(card, filename) }),
    );
  }

  /** Every object under the card's prefix, page by page. */
  private async keysOf(card: CardRef): Promise<string[]> {
    const keys: string[] = [];
    let ContinuationToken: string | undefined;
    do {
      const page = await this.client.send(
        new this.sdk.ListObjectsV2Command({
          Bucket: this.settings.bucket,
          Prefix: this.folder(card),
          ContinuationToken,
        }),
      );
      for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
    return keys;
  }

  async removeAll(card: CardRef): Promise<void> {
    for (const Key of await this.keysOf(card)) {
      await this.client.send(new this.sdk.DeleteObjectCommand({ Bucket: this.settings.bucket, Key }));
    }
  }

  /** S3 has no rename: copy each object to the new key, then delete the old one. */
  async move(from: CardRef, to: CardRef, filenames: string[]): Promise<void> {
    const bucket = this.settings.bucket;
    for (const name of filenames) {
      const source = this.key(from, name);
      const CopySource = `${bucket}/${source.split('/').map(encodeURIComponent).join('/')}`;
      try {
        await this.client.send(new this.sdk.CopyObjectCommand({ Bucket: bucket, Key: this.key(to, name), CopySource }));
      } catch (error) {
        if (isNotFound(error)) continue; // nothing stored under the old key: nothing to carry
        throw error;
      }
      await this.client.send(new this.sdk.DeleteObjectCommand({ Bucket: bucket, Key: source }));
    }
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}
