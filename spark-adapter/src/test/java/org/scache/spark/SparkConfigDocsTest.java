package org.scache.spark;

import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.scache.common.testing.ConfigPageSections;

/**
 * The Spark section of {@code docs/configuration.md} is what {@code ConfigDocs} generates from
 * {@link SparkScacheOptions}. Run with {@code -Dscache.docs.regenerate=true} to write it instead.
 */
class SparkConfigDocsTest {
  @Test
  void sparkSection_matchesTheAdaptersKeys() throws IOException {
    ConfigPageSections.assertCurrent("spark-adapter", "SparkConfigDocsTest", "spark", "Spark adapter",
        "Set in spark-defaults.conf or with --conf. Every other "
        + "SCache key is given to Spark as `spark.` followed by the key (`spark.scache.client.master.address`); see "
        + "[deploy-spark.md](deploy-spark.md).",
        SparkScacheOptions.all());
  }
}
