import { Injectable, OnApplicationBootstrap, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';

interface Route {
  pattern: RegExp;
  methods: Set<string>;
}

/** `/v1/kb/icps/:icp_id` → a pattern of one path, each `:param` one segment. */
export function routePattern(path: string): RegExp {
  const escaped = path
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${escaped}/?$`);
}

/** `'v1/buyers'`, `['', ':id']` → `/v1/buyers/:id` (Nest's joining of controller and handler paths). */
export function joinPaths(...parts: string[]): string {
  const joined = parts
    .flatMap((part) => part.split('/'))
    .filter((segment) => segment !== '')
    .join('/');
  return `/${joined}`;
}

/**
 * The methods each path of the application answers, read from the controllers' route metadata
 * when the application starts: a request with another method on a known path is answered
 * `405 method_not_allowed` with `Allow`, not `404`.
 */
@Injectable()
export class RouteMethods implements OnApplicationBootstrap {
  private readonly routes: Route[] = [];

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  onApplicationBootstrap(): void {
    const byPath = new Map<string, Set<string>>();
    for (const wrapper of this.discovery.getControllers()) {
      const instance = wrapper.instance as object | undefined;
      const metatype = wrapper.metatype;
      if (!instance || !metatype) continue;
      const prefixes = [this.reflector.get<string | string[] | undefined>(PATH_METADATA, metatype) ?? ''].flat();
      const prototype = Object.getPrototypeOf(instance) as object;
      for (const name of this.scanner.getAllMethodNames(prototype)) {
        const handler = (prototype as Record<string, unknown>)[name] as (...args: unknown[]) => unknown;
        const method = this.reflector.get<RequestMethod | undefined>(METHOD_METADATA, handler);
        const paths = this.reflector.get<string | string[] | undefined>(PATH_METADATA, handler);
        if (method === undefined || paths === undefined) continue;
        for (const prefix of prefixes) {
          for (const path of [paths].flat()) {
            const full = joinPaths(prefix, path);
            const methods = byPath.get(full) ?? new Set<string>();
            const verb = RequestMethod[method];
            if (verb === 'ALL') continue;
            methods.add(verb);
            if (verb === 'GET') methods.add('HEAD');
            byPath.set(full, methods);
          }
        }
      }
    }
    for (const [path, methods] of byPath) this.routes.push({ pattern: routePattern(path), methods });
  }

  /** The methods `path` answers, in a stable order, or none for a path no route has. */
  allowed(path: string): string[] {
    const methods = new Set<string>();
    for (const route of this.routes) if (route.pattern.test(path)) for (const method of route.methods) methods.add(method);
    return [...methods].sort();
  }
}
