package org.scache.common.protocol;

import java.util.List;
import org.scache.common.shuffle.RoundState;

/** Worker to master: rounds this worker started or stopped keeping only in part (spilled from or reloaded). */
public record ReportRounds(String workerId, List<RoundState> rounds) implements Message {
  public ReportRounds {
    rounds = List.copyOf(rounds);
  }

  @Override
  public MessageType type() {
    return MessageType.REPORT_ROUNDS;
  }

  @Override
  public void write(WireWriter out) {
    out.writeString(workerId).writeList(rounds, ReportRounds::writeRound);
  }

  /** Reads what {@link #write} writes. */
  static ReportRounds read(WireReader in) throws MalformedMessageException {
    return new ReportRounds(in.readNonEmptyString("worker id"),
        in.readList("rounds", 2 + 1 + 4 + 4 + 1, ReportRounds::readRound));
  }

  private static void writeRound(WireWriter out, RoundState round) {
    out.writeString(round.appId()).writeInt(round.shuffleId()).writeInt(round.round()).writeFlag(round.incomplete());
  }

  private static RoundState readRound(WireReader in) throws MalformedMessageException {
    String app = in.readNonEmptyString("application id");
    int shuffle = in.readNonNegativeInt("shuffle id");
    int round = in.readNonNegativeInt("round");
    int flag = in.readUnsignedByte("incomplete");
    if (flag > 1) {
      throw new MalformedMessageException("incomplete must be 0 or 1: " + flag);
    }
    return new RoundState(app, shuffle, round, flag == 1);
  }
}
