package org.scache.hadoop;

import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.scache.common.testing.ConfigPageSections;

/**
 * The MapReduce adapter section of {@code docs/configuration.md} is what {@code ConfigDocs} generates from
 * {@link MapReduceOptions}. Run with {@code -Dscache.docs.regenerate=true} to write it instead.
 */
class MapReduceConfigDocsTest {
  @Test
  void mapReduceSection_matchesTheAdaptersKeys() throws IOException {
    ConfigPageSections.assertCurrent("hadoop-adapter", "MapReduceConfigDocsTest", "mapreduce", "MapReduce adapter",
        "Set in mapred-site.xml or in a job's configuration; "
        + "see [deploy-yarn.md](deploy-yarn.md).",
        MapReduceOptions.all());
  }
}
