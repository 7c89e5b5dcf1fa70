// Every migration, in order. Listed explicitly so the built service and the tests run the same set.
import { Foundation1763780000000 } from './1763780000000-Foundation';

export const MIGRATIONS = [Foundation1763780000000];
