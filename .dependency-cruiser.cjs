/**
 * The layers' rules (docs/architecture.md), checked by `npm run lint:deps` in CI:
 * - the shared kernel never depends on the feature modules;
 * - configuration depends on neither;
 * - a module reaches another module only through that module's public files, the files at the
 *   top of its folder (`src/modules/<m>/*.ts`, and `src/modules/kb/<resource>/*.ts`): its
 *   `domain/`, `application/` and `infrastructure/` folders are its own;
 * - the console's browser app (console/) takes only the public API's generated types, never the
 *   service's code, and the service never imports the console;
 * - no import cycles, type-only imports included.
 */
module.exports = {
  forbidden: [
    {
      name: 'shared-not-to-modules',
      comment: 'The shared kernel (src/shared) is imported by the modules, never the reverse.',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: { path: '^src/modules/' },
    },
    {
      name: 'config-stands-alone',
      comment: 'Configuration (src/config) depends on neither the kernel nor the modules.',
      severity: 'error',
      from: { path: '^src/config/' },
      to: { path: '^src/(shared|modules)/' },
    },
    {
      name: 'module-internals-stay-inside',
      comment: "Another module's domain/, application/ and infrastructure/ folders are its own; use the files at the top of its folder.",
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: '^src/modules/[^/]+/(domain|application|infrastructure)/', pathNot: '^src/modules/$1/' },
    },
    {
      name: 'entry-points-use-public-files',
      comment: 'Entry points and the kernel reach a module through the files at the top of its folder, not its internals.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/modules/' },
      to: { path: '^src/modules/[^/]+/(domain|application|infrastructure)/' },
    },
    {
      name: 'console-stands-apart',
      comment: "The console talks to the service over HTTP; it shares only the public API's generated types (clients/).",
      severity: 'error',
      from: { path: '^console/' },
      to: { path: '^(src|test|bench|eval)/' },
    },
    {
      name: 'service-not-to-console',
      comment: 'The service serves the built console; it never imports its source.',
      severity: 'error',
      from: { path: '^(src|test|bench|eval)/' },
      to: { path: '^console/' },
    },
    {
      name: 'no-cycles',
      comment: 'Import cycles, type-only ones included, make the load order matter.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|dist-bench|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
