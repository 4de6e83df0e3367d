// Unit tests live beside the code (src, bench, eval and the console's helpers, *.spec.ts); end-to-end tests under test/ (*.e2e-spec.ts).
module.exports = {
  moduleFileExtensions: ['js', 'json', 'ts'],
  rootDir: '.',
  roots: ['<rootDir>/src', '<rootDir>/test', '<rootDir>/bench', '<rootDir>/eval', '<rootDir>/console'],
  testRegex: '.*\\.(e2e-)?spec\\.ts$',
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }],
  },
  testEnvironment: 'node',
  testTimeout: 30000,
  maxWorkers: process.env.CI ? 2 : '50%',
};
