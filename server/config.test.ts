// loadConfig() on the variables it is given (config-env-files.test.ts: the .env files).
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  DEFAULT_MAX_SOCKETS_PER_USER,
  DEFAULT_REFUSAL_HOLD_MS,
  DEFAULT_SHED_EVENT_LOOP_DELAY_MS,
  DEFAULT_UNATTACHED_UPLOAD_TTL_MS,
  DEFAULT_UPLOAD_QUOTA_BYTES,
  loadConfig,
} from './config';
import { DEFAULT_RATE_LIMITS } from './security/rate-limit-defaults';
import { DEFAULT_PUSH_ENDPOINT_ORIGINS, isAllowedEndpoint } from './push/push-settings';
import webPush from 'web-push';

const base = { FIREBASE_PROJECT_ID: 'demo-parley' };

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    expect(loadConfig({ ...base })).toEqual({
      nodeEnv: 'production',
      dev: false,
      port: 3000,
      host: undefined,
      databaseUrl: undefined,
      migrateOnStart: true,
      redisUrl: undefined,
      dataDir: '.data',
      firebaseProjectId: 'demo-parley',
      firebaseAuthEmulatorHost: undefined,
      allowAuthEmulatorInProduction: false,
      serveNext: true,
      logLevel: 'info',
      allowedOrigins: null,
      rateLimits: DEFAULT_RATE_LIMITS,
      shutdownDrainMs: 0,
      objectStorage: undefined,
      maxSocketsPerUser: DEFAULT_MAX_SOCKETS_PER_USER,
      shedEventLoopDelayMs: DEFAULT_SHED_EVENT_LOOP_DELAY_MS,
      refusalHoldMs: DEFAULT_REFUSAL_HOLD_MS,
      uploadQuotaBytes: DEFAULT_UPLOAD_QUOTA_BYTES,
      unattachedUploadTtlMs: DEFAULT_UNATTACHED_UPLOAD_TTL_MS,
      messageWindows: { editWindowMs: 15 * 60_000, unsendWindowMs: 24 * 3600_000 },
      sessions: { idleMs: 30 * 86_400_000, maxMs: 90 * 86_400_000, checkIntervalMs: 300_000, maxPerUser: 50 },
      trustProxy: false,
      push: { vapid: null, endpointOrigins: [...DEFAULT_PUSH_ENDPOINT_ORIGINS] },
    });
    expect(DEFAULT_UPLOAD_QUOTA_BYTES).toBe(2_000_000_000);
    expect(DEFAULT_REFUSAL_HOLD_MS).toBe(1_000);
    expect(DEFAULT_UNATTACHED_UPLOAD_TTL_MS).toBe(24 * 3600 * 1000);
    expect(DEFAULT_MAX_SOCKETS_PER_USER).toBe(20);
  });

  it('listens on loopback only outside production unless HOST says otherwise', () => {
    expect(loadConfig({ ...base, NODE_ENV: 'development' }).host).toBe('127.0.0.1');
    expect(loadConfig({ ...base, NODE_ENV: 'test' }).host).toBe('127.0.0.1');
    expect(loadConfig({ ...base, NODE_ENV: 'development', HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadConfig({ ...base, NODE_ENV: 'production' }).host).toBeUndefined(); // every interface
  });

  it('reads session lifetimes in days and the check interval in seconds, refusing nonsense', () => {
    expect(loadConfig({ ...base, SESSION_IDLE_DAYS: '7', SESSION_MAX_DAYS: '0.5', SESSION_CHECK_SECONDS: '0' }).sessions).toEqual({
      idleMs: 7 * 86_400_000,
      maxMs: 43_200_000,
      checkIntervalMs: 0,
      maxPerUser: 50,
    });
    expect(() => loadConfig({ ...base, SESSION_IDLE_DAYS: '0' })).toThrow(/SESSION_IDLE_DAYS: must be more than 0 days/);
    expect(() => loadConfig({ ...base, SESSION_MAX_DAYS: 'forever' })).toThrow(/SESSION_MAX_DAYS: must be a number of days/);
    expect(() => loadConfig({ ...base, SESSION_CHECK_SECONDS: '-1' })).toThrow(/SESSION_CHECK_SECONDS/);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      ...base,
      NODE_ENV: 'production',
      PORT: '8080',
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgres://u:p@db:5432/parley',
      REDIS_URL: 'rediss://:secret@cache:6380/1',
      DATA_DIR: '/var/parley',
      SERVE_NEXT: 'false',
      SHUTDOWN_DRAIN_MS: '5000',
      MAX_SOCKETS_PER_USER: '5',
      SHED_EVENT_LOOP_DELAY_MS: '0',
      RATE_LIMIT_HOLD_MS: '250',
      UPLOAD_QUOTA: '500 MiB',
      UNATTACHED_UPLOAD_TTL: '90m',
    });
    expect(config).toMatchObject({
      nodeEnv: 'production',
      dev: false,
      port: 8080,
      host: '127.0.0.1',
      databaseUrl: 'postgres://u:p@db:5432/parley',
      redisUrl: 'rediss://:secret@cache:6380/1',
      dataDir: '/var/parley',
      serveNext: false,
      shutdownDrainMs: 5000,
      maxSocketsPerUser: 5,
      shedEventLoopDelayMs: 0,
      refusalHoldMs: 250,
      uploadQuotaBytes: 500 * 1024 ** 2,
      unattachedUploadTtlMs: 90 * 60_000,
    });
  });

  it('reads sizes and durations, and refuses what it cannot read', () => {
    expect(loadConfig({ ...base, UPLOAD_QUOTA: '2GiB' }).uploadQuotaBytes).toBe(2 * 1024 ** 3);
    expect(loadConfig({ ...base, UPLOAD_QUOTA: '2GB' }).uploadQuotaBytes).toBe(2_000_000_000);
    expect(loadConfig({ ...base, UPLOAD_QUOTA: '500 MB' }).uploadQuotaBytes).toBe(500_000_000);
    expect(loadConfig({ ...base, UPLOAD_QUOTA: '1048576' }).uploadQuotaBytes).toBe(1024 ** 2);
    expect(loadConfig({ ...base, UPLOAD_QUOTA: '1.5 kib' }).uploadQuotaBytes).toBe(1536);
    expect(loadConfig({ ...base, UPLOAD_QUOTA: 'off' }).uploadQuotaBytes).toBeNull();
    expect(loadConfig({ ...base, UNATTACHED_UPLOAD_TTL: '7d' }).unattachedUploadTtlMs).toBe(7 * 86_400_000);
    expect(loadConfig({ ...base, UNATTACHED_UPLOAD_TTL: '30s' }).unattachedUploadTtlMs).toBe(30_000);
    expect(loadConfig({ ...base, MESSAGE_EDIT_WINDOW: '1h', MESSAGE_UNSEND_WINDOW: '2d' }).messageWindows).toEqual({
      editWindowMs: 3_600_000,
      unsendWindowMs: 2 * 86_400_000,
    });
    expect(() => loadConfig({ ...base, MESSAGE_EDIT_WINDOW: 'forever' })).toThrow(/MESSAGE_EDIT_WINDOW: must be a duration/);
    for (const value of ['2PB', '-1', '0', 'lots', '0.5']) {
      expect(() => loadConfig({ ...base, UPLOAD_QUOTA: value })).toThrow(/UPLOAD_QUOTA: must be a size/);
    }
    for (const value of ['24', '1h30m', '0s', '500ms', 'forever']) {
      expect(() => loadConfig({ ...base, UNATTACHED_UPLOAD_TTL: value })).toThrow(/UNATTACHED_UPLOAD_TTL: must be a duration/);
    }
    expect(() => loadConfig({ ...base, MAX_SOCKETS_PER_USER: '0' })).toThrow(/MAX_SOCKETS_PER_USER/);
  });

  it('treats blank values as unset', () => {
    const config = loadConfig({ ...base, PORT: '', DATABASE_URL: '', REDIS_URL: '', FIREBASE_AUTH_EMULATOR_HOST: '' });
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.redisUrl).toBeUndefined();
    expect(config.firebaseAuthEmulatorHost).toBeUndefined();
  });

  it('lists every bad variable in one error', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', REDIS_URL: 'http://cache:6379', SERVE_NEXT: 'maybe', SHUTDOWN_DRAIN_MS: '-1' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    for (const name of ['PORT', 'DATABASE_URL', 'REDIS_URL', 'SERVE_NEXT', 'SHUTDOWN_DRAIN_MS', 'FIREBASE_PROJECT_ID']) {
      expect((error as Error).message).toContain(name);
    }
  });

  it('refuses the Auth emulator in production', () => {
    const env = { ...base, NODE_ENV: 'production', FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' };
    expect(() => loadConfig(env)).toThrow(/FIREBASE_AUTH_EMULATOR_HOST.*production/);
    expect(() => loadConfig({ ...env, ALLOW_AUTH_EMULATOR_IN_PRODUCTION: 'false' })).toThrow(ConfigError);
  });

  it('allows the Auth emulator in production only with the explicit override', () => {
    const config = loadConfig({
      ...base,
      NODE_ENV: 'production',
      FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099',
      ALLOW_AUTH_EMULATOR_IN_PRODUCTION: 'true',
    });
    expect(config.firebaseAuthEmulatorHost).toBe('127.0.0.1:9099');
    expect(config.allowAuthEmulatorInProduction).toBe(true);
  });

  it('refuses the Auth emulator when NODE_ENV is unset or blank, which means production', () => {
    for (const NODE_ENV of [undefined, '']) {
      const env = { ...base, NODE_ENV, FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' };
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(
        /FIREBASE_AUTH_EMULATOR_HOST is set while NODE_ENV is unset, which means production/,
      );
    }
  });

  it('allows the Auth emulator in development and test', () => {
    for (const NODE_ENV of ['development', 'test']) {
      const config = loadConfig({ ...base, NODE_ENV, FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' });
      expect(config.firebaseAuthEmulatorHost).toBe('127.0.0.1:9099');
    }
  });

  it('rejects an emulator host that is not host:port', () => {
    const env = { ...base, NODE_ENV: 'development', FIREBASE_AUTH_EMULATOR_HOST: 'http://localhost' };
    expect(() => loadConfig(env)).toThrow(/FIREBASE_AUTH_EMULATOR_HOST: must look like host:port/);
  });

  it('reads rate limits as "<count>/<s|m|h>,burst=<n>", or off', () => {
    const config = loadConfig({
      ...base,
      RATE_LIMIT_SEND: '20/s,burst=60',
      RATE_LIMIT_FOLLOW: ' 30/m, burst = 5 ',
      RATE_LIMIT_SEARCH: 'off',
      RATE_LIMIT_UPLOAD: '0.5/s,burst=1',
      RATE_LIMIT_SYNC: '1/s,burst=10',
      RATE_LIMIT_PAGE: '4/s,burst=8',
      RATE_LIMIT_EVENT: 'off',
      RATE_LIMIT_REQUEST: '100/m,burst=100',
      RATE_LIMIT_EXPORT: '2/h,burst=1',
      RATE_LIMIT_TYPING: '1/s,burst=3',
      RATE_LIMIT_PRESENCE: 'off',
      RATE_LIMIT_PROFILE: '2/m,burst=4',
      RATE_LIMIT_REPORT: '10/h,burst=5',
      RATE_LIMIT_SIGNUP: 'off',
      RATE_LIMIT_DOWNLOAD: '5/s,burst=100',
    });
    expect(config.rateLimits).toEqual({
      send: { perSecond: 20, burst: 60 },
      follow: { perSecond: 0.5, burst: 5 },
      follow_pair: { perSecond: 1 / 600, burst: 4 },
      search: null,
      upload: { perSecond: 0.5, burst: 1 },
      sync: { perSecond: 1, burst: 10 },
      page: { perSecond: 4, burst: 8 },
      event: null,
      connect: DEFAULT_RATE_LIMITS.connect,
      request: { perSecond: 100 / 60, burst: 100 },
      export: { perSecond: 2 / 3600, burst: 1 },
      typing: { perSecond: 1, burst: 3 },
      presence: null,
      profile: { perSecond: 2 / 60, burst: 4 },
      report: { perSecond: 10 / 3600, burst: 5 },
      signup: null,
      download: { perSecond: 5, burst: 100 },
    });
    expect(loadConfig({ ...base, RATE_LIMIT_UPLOAD: '3600/h,burst=2' }).rateLimits.upload).toEqual({ perSecond: 1, burst: 2 });
    expect(loadConfig({ ...base, RATE_LIMIT_SEND: '' }).rateLimits.send).toEqual(DEFAULT_RATE_LIMITS.send);
  });

  it('refuses a rate limit it cannot read', () => {
    for (const value of ['20', '20/s', '0/s,burst=5', '5/s,burst=0', '5/day,burst=5', '-1/s,burst=5', 'unlimited']) {
      expect(() => loadConfig({ ...base, RATE_LIMIT_FOLLOW: value })).toThrow(/RATE_LIMIT_FOLLOW: must be "<count>\/<s\|m\|h>,burst=<n>"/);
    }
  });

  it('reads TRUST_PROXY as true, false or proxy addresses and CIDRs, and MAX_SESSIONS_PER_USER', () => {
    expect(loadConfig({ ...base, TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ ...base, TRUST_PROXY: 'FALSE' }).trustProxy).toBe(false);
    expect(loadConfig({ ...base, TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1' }).trustProxy).toEqual(['10.0.0.0/8', '127.0.0.1', '::1']);
    for (const value of ['yes', '2', 'proxy.example', '10.0.0.0/8,']) {
      expect(() => loadConfig({ ...base, TRUST_PROXY: value })).toThrow(/TRUST_PROXY: must be true, false, or comma-separated proxy addresses or CIDRs/);
    }
    expect(loadConfig({ ...base, MAX_SESSIONS_PER_USER: '5' }).sessions.maxPerUser).toBe(5);
    expect(() => loadConfig({ ...base, MAX_SESSIONS_PER_USER: '0' })).toThrow(/MAX_SESSIONS_PER_USER/);
  });

  it('reads ALLOWED_ORIGINS as a comma-separated list of origins', () => {
    const config = loadConfig({ ...base, ALLOWED_ORIGINS: 'https://Parley.example, http://localhost:3000/ ,https://x.example:443' });
    expect(config.allowedOrigins).toEqual(['https://parley.example', 'http://localhost:3000', 'https://x.example']);
    expect(loadConfig({ ...base, ALLOWED_ORIGINS: '' }).allowedOrigins).toBeNull();
  });

  it('refuses an ALLOWED_ORIGINS entry that is not a bare origin, and an empty list', () => {
    for (const value of ['parley.example', 'https://parley.example/app', 'https://parley.example?x', 'ftp://parley.example', 'https://u:p@parley.example', '*']) {
      expect(() => loadConfig({ ...base, ALLOWED_ORIGINS: value })).toThrow(/ALLOWED_ORIGINS: .* is not an origin/);
    }
    expect(() => loadConfig({ ...base, ALLOWED_ORIGINS: ' , ' })).toThrow(/ALLOWED_ORIGINS: lists no origin/);
  });

  it('reads the S3_* variables: a bucket selects object storage, with us-east-1 and the default credentials unless told', () => {
    expect(loadConfig({ ...base, S3_BUCKET: 'parley-files' }).objectStorage).toEqual({
      bucket: 'parley-files',
      region: 'us-east-1',
      endpoint: undefined,
      forcePathStyle: false,
      accessKeyId: undefined,
      secretAccessKey: undefined,
    });
    const minio = {
      S3_BUCKET: 'attachments',
      S3_REGION: 'eu-west-3',
      S3_ENDPOINT: 'http://minio:9000',
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: 'parley',
      S3_SECRET_ACCESS_KEY: 's3cret',
    };
    expect(loadConfig({ ...base, ...minio }).objectStorage).toEqual({
      bucket: 'attachments',
      region: 'eu-west-3',
      endpoint: 'http://minio:9000',
      forcePathStyle: true,
      accessKeyId: 'parley',
      secretAccessKey: 's3cret',
    });
    expect(loadConfig({ ...base, S3_BUCKET: '', S3_ENDPOINT: '' }).objectStorage).toBeUndefined();
  });

  it('refuses S3 settings without a bucket, half a key pair, and an endpoint that is not http(s)', () => {
    expect(() => loadConfig({ ...base, S3_ENDPOINT: 'http://minio:9000', S3_FORCE_PATH_STYLE: 'true' })).toThrow(
      /S3_ENDPOINT, S3_FORCE_PATH_STYLE set without S3_BUCKET/,
    );
    expect(() => loadConfig({ ...base, S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k' })).toThrow(/S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together/);
    expect(() => loadConfig({ ...base, S3_BUCKET: 'b', S3_ENDPOINT: 'minio:9000' })).toThrow(/S3_ENDPOINT: must be an http:\/\/ or https:\/\/ URL/);
  });

  it('logs less under test', () => {
    expect(loadConfig({ ...base, NODE_ENV: 'test' }).logLevel).toBe('warn');
    expect(loadConfig({ ...base, NODE_ENV: 'test', LOG_LEVEL: 'debug' }).logLevel).toBe('debug');
  });
});

describe('Web Push', () => {
  const keys = webPush.generateVAPIDKeys();
  const vapid = { VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey, VAPID_SUBJECT: 'mailto:ops@parley.example' };

  it('is off in production without keys, generated in development and test', () => {
    expect(loadConfig({ ...base }).push.vapid).toBeNull();
    expect(loadConfig({ ...base, NODE_ENV: 'development' }).push.vapid).toBe('generate');
    expect(loadConfig({ ...base, NODE_ENV: 'test' }).push.vapid).toBe('generate');
  });

  it('reads a key pair with its subject, and the push services allowed', () => {
    const config = loadConfig({ ...base, ...vapid, PUSH_ENDPOINT_ORIGINS: 'https://push.example.com, https://*.push.example.net' });
    expect(config.push).toEqual({
      vapid: { publicKey: keys.publicKey, privateKey: keys.privateKey, subject: 'mailto:ops@parley.example' },
      endpointOrigins: ['https://push.example.com', 'https://*.push.example.net'],
    });
  });

  it.each([
    [{ VAPID_PUBLIC_KEY: keys.publicKey }, 'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together'],
    [{ VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey }, 'VAPID_SUBJECT: required'],
    [{ ...vapid, VAPID_PUBLIC_KEY: 'abc' }, 'VAPID_PUBLIC_KEY: must be base64url'],
    [{ ...vapid, VAPID_PRIVATE_KEY: keys.publicKey }, 'VAPID_PRIVATE_KEY: must be base64url of a 32-byte'],
    [{ ...vapid, VAPID_SUBJECT: 'ops@parley.example' }, 'VAPID_SUBJECT: must be a mailto:'],
    [{ VAPID_SUBJECT: 'mailto:a@b.c' }, 'VAPID_SUBJECT set without'],
    [{ PUSH_ENDPOINT_ORIGINS: 'https://push.example.com/path' }, 'PUSH_ENDPOINT_ORIGINS: "https://push.example.com/path" is not an origin'],
    [{ PUSH_ENDPOINT_ORIGINS: ' , ' }, 'PUSH_ENDPOINT_ORIGINS: lists no origin'],
  ])('refuses %j', (env, problem) => {
    expect(() => loadConfig({ ...base, ...env })).toThrow(problem);
  });

  it('allows endpoints only on the listed push services, by scheme and host', () => {
    const origins = ['https://fcm.googleapis.com', 'https://*.push.apple.com', 'http://127.0.0.1'];
    expect(isAllowedEndpoint('https://fcm.googleapis.com/fcm/send/abc', origins)).toBe(true);
    expect(isAllowedEndpoint('https://api.push.apple.com/3/device/x', origins)).toBe(true);
    expect(isAllowedEndpoint('http://127.0.0.1:8090/notify/x', origins)).toBe(true);
    for (const endpoint of [
      'http://fcm.googleapis.com/fcm/send/abc', 'https://fcm.googleapis.com.evil.example/x', 'https://push.apple.com/x',
      'https://user:pw@fcm.googleapis.com/x', 'https://127.0.0.1/x', 'not a url', 'https://169.254.169.254/latest',
    ]) {
      expect(isAllowedEndpoint(endpoint, origins), endpoint).toBe(false);
    }
  });
});
