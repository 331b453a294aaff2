package org.scache.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.scache.common.config.ConfigEntry;
import org.scache.common.config.ScacheOptions;

class ConfTemplateTest {

  @Test
  void render_listsEveryKeyCommentedOutWithItsDefault() {
    String text = ConfTemplate.render();
    for (ConfigEntry<?> e : ScacheOptions.all()) {
      assertTrue(text.contains("\n#" + e.key() + "=" + e.defaultText() + "\n"), e.key());
    }
  }

  @Test
  void render_setsNothing_soTheDefaultsApply() throws IOException {
    Properties p = new Properties();
    p.load(new StringReader(ConfTemplate.render()));
    assertEquals(0, p.size());
  }

  @Test
  void render_marksTheClusterSecretRequired() {
    String text = ConfTemplate.render();
    String key = ScacheOptions.SECURITY_CLUSTER_SECRET.key();
    int entry = text.indexOf("\n#" + key + "=");
    int doc = text.lastIndexOf("\n\n", entry);
    assertTrue(text.substring(doc, entry).contains("REQUIRED"), "the secret's comment says REQUIRED");
  }

  @Test
  void render_wrapsCommentsAtOneHundredColumns() {
    for (String line : ConfTemplate.render().split("\n")) {
      assertTrue(line.length() <= 100 || !line.contains(" "), line);
    }
  }
}
