package org.scache.hadoop.map;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.Text;
import org.junit.jupiter.api.Test;
import org.scache.hadoop.MapOutputBlock;

/** The collector's sizing of a map's run, which needs no cluster. */
class ScacheMapOutputCollectorTest {
  @Test
  void runCapacity_holdsAnUncompressedIFileRunOfTheRecords() throws IOException {
    java.util.Random random = new java.util.Random(7);
    for (int records : new int[] {0, 1, 1000}) {
      java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
      long serialized = 0;
      try (org.apache.hadoop.fs.FSDataOutputStream out = new org.apache.hadoop.fs.FSDataOutputStream(bytes, null)) {
        org.apache.hadoop.mapred.IFile.Writer<Text, Text> writer = new org.apache.hadoop.mapred.IFile.Writer<>(
            new Configuration(false), out, Text.class, Text.class, null, null);
        DataOutputBuffer serializedForm = new DataOutputBuffer();
        for (int r = 0; r < records; r++) {
          Text key = new Text(Integer.toString(random.nextInt()));
          Text value = new Text("v".repeat(random.nextInt(300)));
          serializedForm.reset();
          key.write(serializedForm);
          value.write(serializedForm);
          serialized += serializedForm.getLength();
          writer.append(key, value);
        }
        writer.close();
      }
      assertTrue(MapOutputBlock.HEADER_BYTES + bytes.size() <= ScacheMapOutputCollector.runCapacity(serialized,
          records),
          records + " records: " + bytes.size() + " bytes");
    }
  }
}
