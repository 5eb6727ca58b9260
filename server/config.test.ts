import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

const base = { FIREBASE_PROJECT_ID: 'demo-parley' };

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    expect(loadConfig({ ...base })).toEqual({
      nodeEnv: 'development',
      dev: true,
      port: 3000,
      host: undefined,
      databaseUrl: undefined,
      dataDir: '.data',
      firebaseProjectId: 'demo-parley',
      firebaseAuthEmulatorHost: undefined,
      allowAuthEmulatorInProduction: false,
      serveNext: true,
      logLevel: 'info',
    });
  });

  it('reads every variable', () => {
    const config = loadConfig({
      ...base,
      NODE_ENV: 'production',
      PORT: '8080',
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgres://u:p@db:5432/parley',
      DATA_DIR: '/var/parley',
      SERVE_NEXT: 'false',
    });
    expect(config).toMatchObject({
      nodeEnv: 'production',
      dev: false,
      port: 8080,
      host: '127.0.0.1',
      databaseUrl: 'postgres://u:p@db:5432/parley',
      dataDir: '/var/parley',
      serveNext: false,
    });
  });

  it('treats blank values as unset', () => {
    const config = loadConfig({ ...base, PORT: '', DATABASE_URL: '', FIREBASE_AUTH_EMULATOR_HOST: '' });
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.firebaseAuthEmulatorHost).toBeUndefined();
  });

  it('lists every bad variable in one error', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', SERVE_NEXT: 'maybe' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    for (const name of ['PORT', 'DATABASE_URL', 'SERVE_NEXT', 'FIREBASE_PROJECT_ID']) {
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

  it('allows the Auth emulator outside production', () => {
    const config = loadConfig({ ...base, NODE_ENV: 'development', FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' });
    expect(config.firebaseAuthEmulatorHost).toBe('127.0.0.1:9099');
  });

  it('rejects an emulator host that is not host:port', () => {
    expect(() => loadConfig({ ...base, FIREBASE_AUTH_EMULATOR_HOST: 'http://localhost' })).toThrow(
      /FIREBASE_AUTH_EMULATOR_HOST/,
    );
  });

  it('logs less under test', () => {
    expect(loadConfig({ ...base, NODE_ENV: 'test' }).logLevel).toBe('warn');
    expect(loadConfig({ ...base, NODE_ENV: 'test', LOG_LEVEL: 'debug' }).logLevel).toBe('debug');
  });
});
