import { Check, Column, Entity, PrimaryColumn } from 'typeorm';

/** One row: the dev clock offset every process reads (runtime contract › Dev clock). */
@Entity('service_clock')
@Check('CHK_service_clock_single_row', '"id" = 1')
export class ServiceClockEntity {
  @PrimaryColumn({ type: 'smallint' })
  id!: number;

  @Column({ name: 'offset_ms', type: 'bigint', default: 0 })
  offsetMs!: string;
}
