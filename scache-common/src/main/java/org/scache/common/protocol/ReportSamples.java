package org.scache.common.protocol;

import java.util.List;
import java.util.Optional;
import org.scache.common.shuffle.MapSample;

/** Framework to master, before or during the map stage: sampling results of some maps. */
public record ReportSamples(String appId, int shuffleId, List<MapSample> samples)
    implements Message, Message.ForApplication {
  public ReportSamples {
    samples = List.copyOf(samples);
  }

  @Override
  public MessageType type() {
    return MessageType.REPORT_SAMPLES;
  }

  @Override
  public void write(WireWriter out) {
    out.writeString(appId).writeInt(shuffleId).writeList(samples, ReportSamples::writeSample);
  }

  /** Reads what {@link #write} writes. */
  static ReportSamples read(WireReader in) throws MalformedMessageException {
    return new ReportSamples(in.readNonEmptyString("application id"), in.readNonNegativeInt("shuffle id"),
        in.readList("samples", 4 + 8 + 4 + 4 + 2, ReportSamples::readSample));
  }

  private static void writeSample(WireWriter out, MapSample sample) {
    out.writeInt(sample.mapId()).writeLong(sample.inputBytes()).writeInt(sample.capacity())
        .writeList(sample.countsPerReduce(), WireWriter::writeInt).writeString(sample.expectedHost().orElse(""));
  }

  private static MapSample readSample(WireReader in) throws MalformedMessageException {
    int map = in.readNonNegativeInt("map id");
    long input = in.readNonNegativeLong("input bytes");
    int capacity = in.readNonNegativeInt("sample capacity");
    List<Integer> counts = in.readList("sample counts", 4, r -> r.readNonNegativeInt("sample count"));
    String host = in.readString("expected host");
    return new MapSample(map, input, capacity, counts, host.isEmpty() ? Optional.empty() : Optional.of(host));
  }
}
