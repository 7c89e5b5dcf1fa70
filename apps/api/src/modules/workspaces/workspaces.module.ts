import { Module } from '@nestjs/common';
import { WorkspacesService } from '@svc/workspaces';

@Module({ providers: [WorkspacesService], exports: [WorkspacesService] })
export class WorkspacesModule {}
