package org.scache.common.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The fields that say who an application's user is read back, and are absent from older senders' forms. */
class TenancyFieldsTest {
  private static final byte[] SECRET = "s".getBytes(StandardCharsets.UTF_8);

  @Test
  void registrationWithoutCredential_fromAnOlderSender_readsWithAnEmptyOne() throws Exception {
    RegisterApplication now = new RegisterApplication("app-1", SECRET, "alice:1:sig");
    ByteBuf out = Unpooled.buffer();
    try {
      MessageCodec.encode(now, out);
      assertEquals(now, MessageCodec.decode(MessageType.REGISTER_APPLICATION, out.duplicate()));
      int credential = 2 + "alice:1:sig".length();
      assertEquals(new RegisterApplication("app-1", SECRET), MessageCodec.decode(MessageType.REGISTER_APPLICATION,
          out.slice(0, out.readableBytes() - credential)));
    } finally {
      out.release();
    }
  }

  @Test
  void secretWithoutUser_fromAnOlderMaster_readsWithAnEmptyOne() throws Exception {
    ByteBuf out = Unpooled.buffer();
    try {
      MessageCodec.encode(new AppSecret(SECRET, "bob"), out);
      assertEquals(new AppSecret(SECRET, "bob"), MessageCodec.decode(MessageType.APP_SECRET, out.duplicate()));
      assertEquals(new AppSecret(SECRET, ""), MessageCodec.decode(MessageType.APP_SECRET,
          out.slice(0, out.readableBytes() - 5)));
    } finally {
      out.release();
    }
  }

  @Test
  void vouch_roundTrips() throws Exception {
    VouchApplication v = new VouchApplication("application_1_0001", "alice", new byte[0]);
    ByteBuf out = Unpooled.buffer();
    try {
      MessageCodec.encode(v, out);
      assertEquals(v, MessageCodec.decode(MessageType.VOUCH_APPLICATION, out));
    } finally {
      out.release();
    }
  }
}
