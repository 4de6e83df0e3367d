import { Module } from '@nestjs/common';
import { DirectoryImportService } from './directory-import.service';
import { DirectoryEnrichmentProvider } from './directory.provider';
import { DirectoryRepository } from './directory.repository';
import { ENRICHMENT_PROVIDER } from './enrichment-provider';

@Module({
  providers: [
    DirectoryRepository,
    DirectoryImportService,
    DirectoryEnrichmentProvider,
    { provide: ENRICHMENT_PROVIDER, useExisting: DirectoryEnrichmentProvider },
  ],
  exports: [DirectoryRepository, DirectoryImportService, ENRICHMENT_PROVIDER],
})
export class DirectoryModule {}
