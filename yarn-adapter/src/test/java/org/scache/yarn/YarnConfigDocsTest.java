package org.scache.yarn;

import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.scache.common.testing.ConfigPageSections;

/**
 * The YARN (MapReduce and Tez) section of {@code docs/configuration.md} is what {@code ConfigDocs} generates from
 * {@link YarnOptions}. Run with {@code -Dscache.docs.regenerate=true} to write it instead.
 */
class YarnConfigDocsTest {
  @Test
  void yarnSection_matchesTheAdaptersKeys() throws IOException {
    ConfigPageSections.assertCurrent("yarn-adapter", "YarnConfigDocsTest", "yarn", "YARN (MapReduce and Tez)",
        "Set in yarn-site.xml, or in a job's "
        + "configuration. Read by the auxiliary service in every NodeManager and by the MapReduce and Tez "
        + "adapters; see [deploy-yarn.md](deploy-yarn.md).",
        YarnOptions.all());
  }
}
