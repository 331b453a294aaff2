package org.scache.common.protocol;

import org.scache.common.BlockId;

/**
 * Makes {@code [offset, offset + length)} of a lease (offsets within the lease's segment) the
 * bytes of the block; the range must lie in the lease and not overlap an earlier commit.
 */
public record CommitLeased(BlockId blockId, long leaseId, long offset, long length)
    implements Message, Message.ForApplication {
  @Override
  public String appId() {
    return blockId.appId();
  }

  @Override
  public MessageType type() {
    return MessageType.COMMIT_LEASED;
  }

  @Override
  public void write(WireWriter out) {
    BlockIdForm.write(out, blockId).writeLong(leaseId).writeLong(offset).writeLong(length);
  }

  /** Reads what {@link #write} writes. */
  static CommitLeased read(WireReader in) throws MalformedMessageException {
    return new CommitLeased(BlockIdForm.read(in), in.readLong("lease id"), in.readNonNegativeLong("offset"),
        in.readNonNegativeLong("length"));
  }
}
