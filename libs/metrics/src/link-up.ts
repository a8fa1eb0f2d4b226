// plinth_link_up{link} is Plinth's own gauge of a process's links (to storage, NATS, etcd): 1
// while the link is up, 0 while it is lost or not made yet, read from the links when scraped.
import { Gauge, Registry } from './registry';

// Link is what the gauge reads of a link: machinery's LinkState is one.
export interface Link {
  readonly name: string;
  readonly up: boolean;
}

export function registerLinkMetric(registry: Registry, links: readonly Link[]): void {
  const gauge = registry.shared(new Gauge({ name: 'plinth_link_up', help: 'Whether the link to a service this process depends on is up (1) or lost (0).', labelNames: ['link'] }));
  const previous = gauge.collect;
  gauge.collect = () => {
    previous?.();
    for (const link of links) gauge.labels(link.name).set(link.up ? 1 : 0);
  };
}
