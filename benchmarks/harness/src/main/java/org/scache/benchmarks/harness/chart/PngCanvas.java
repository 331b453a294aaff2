package org.scache.benchmarks.harness.chart;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;

/** The charts' drawing surface: a white, antialiased image, written out as a PNG. */
public final class PngCanvas {
  private final BufferedImage image;

  public PngCanvas(int width, int height) {
    System.setProperty("java.awt.headless", "true");
    this.image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
  }

  /** A graphics context over the whole image, cleared to white; dispose it when done. */
  public Graphics2D graphics() {
    Graphics2D g = image.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, image.getWidth(), image.getHeight());
    return g;
  }

  public void write(Path png) throws IOException {
    Files.createDirectories(png.toAbsolutePath().getParent());
    if (!ImageIO.write(image, "png", png.toFile())) {
      throw new IOException("no PNG writer in this JVM");
    }
  }
}
