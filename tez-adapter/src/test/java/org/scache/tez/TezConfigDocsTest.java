package org.scache.tez;

import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.scache.common.testing.ConfigPageSections;

/**
 * The Tez section of {@code docs/configuration.md} is what {@code ConfigDocs} generates from
 * {@link TezScacheOptions}. Run with {@code -Dscache.docs.regenerate=true} to write it instead.
 */
class TezConfigDocsTest {
  @Test
  void tezSection_matchesTheAdaptersKeys() throws IOException {
    ConfigPageSections.assertCurrent("tez-adapter", "TezConfigDocsTest", "tez", "Tez adapter",
        "Set in tez-site.xml, with "
        + "`tez.am.dag.scheduler.class=org.scache.tez.ScacheDagScheduler` (or in the configuration a DAG is built "
        + "with, `ScacheTezDag`); the tasks and vertex managers read them from the payloads written for them. The "
        + "worker and client keys above apply as in yarn-site.xml; see [deploy-tez.md](deploy-tez.md).",
        TezScacheOptions.all());
  }
}
