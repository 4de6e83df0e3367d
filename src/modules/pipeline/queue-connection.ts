import { Injectable, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import type { ConnectionOptions } from 'bullmq';
import { APP_CONFIG, AppConfig } from '../../config/config';
import { createRedisClient, refuseClusterNodeWithoutCluster, redisOptionsFromUrl } from '../../shared/infrastructure/redis';
import { warnAtMostEvery } from '../../shared/infrastructure/warn-at-most-every';

/**
 * The connection every BullMQ queue and worker of the process is given. For one Redis it is
 * connection options, and each queue and worker opens its own connections from them. For a
 * cluster it is one cluster client the queues share (BullMQ takes a client, not cluster options;
 * workers duplicate it for their blocking reads), which this provider closes after them: its
 * module is imported by BullMQ's root module, so Nest shuts it down after the queues and workers.
 */
@Injectable()
export class QueueConnection implements OnApplicationShutdown {
  private constructor(
    readonly options: ConnectionOptions,
    private readonly shared: { quit(): Promise<unknown>; disconnect(): void } | null,
  ) {}

  /**
   * Without REDIS_CLUSTER_NODES, refuses to start against a cluster node (whose keys live on
   * other nodes, so every queue would fail with `CROSSSLOT` or `MOVED`); a Redis that does not
   * answer yet is left to readiness.
   */
  static async open(config: AppConfig): Promise<QueueConnection> {
    if (!config.redisClusterNodes) {
      await refuseClusterNodeWithoutCluster(config.redisUrl);
      return new QueueConnection(redisOptionsFromUrl(config.redisUrl), null);
    }
    // BullMQ workers block on Redis; they must not give up on a command.
    const cluster = createRedisClient(config, { maxRetriesPerRequest: null });
    cluster.on('error', warnAtMostEvery(new Logger('QueueConnection'), 'Redis Cluster for the pipeline queues'));
    return new QueueConnection(cluster, cluster);
  }

  async onApplicationShutdown(): Promise<void> {
    if (!this.shared) return;
    await this.shared.quit().catch(() => this.shared?.disconnect());
  }
}

@Module({
  providers: [{ provide: QueueConnection, inject: [APP_CONFIG], useFactory: (config: AppConfig) => QueueConnection.open(config) }],
  exports: [QueueConnection],
})
export class QueueConnectionModule {}
