export const TEST_EMULATOR_PORT: number;
export const TEST_EMULATOR_HOST: string;
export function testEmulatorConfig(): string;
