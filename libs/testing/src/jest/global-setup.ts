// globalSetup checks, once per run of jest's integration or e2e project (jest.config.js), that
// the servers their suites start are installed, so a missing binary fails the run at once with
// how to install it. The unit project needs none.
import { etcdBinary, findBinary, natsBinary } from '../binaries';

export default async function globalSetup(): Promise<void> {
  findBinary(etcdBinary);
  findBinary(natsBinary);
}
