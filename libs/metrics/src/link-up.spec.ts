import { Registry, registerLinkMetric } from './index';

describe('registerLinkMetric', () => {
  it('reads each link when scraped, and keeps the links registered before over the same registry', () => {
    const registry = new Registry();
    const etcd = { name: 'etcd', up: true };
    const nats = { name: 'nats', up: false };
    registerLinkMetric(registry, [etcd]);
    registerLinkMetric(registry, [nats]);
    expect(registry.expose()).toContain('plinth_link_up{link="etcd"} 1\nplinth_link_up{link="nats"} 0\n');
    etcd.up = false;
    nats.up = true;
    expect(registry.expose()).toContain('plinth_link_up{link="etcd"} 0\nplinth_link_up{link="nats"} 1\n');
  });
});
