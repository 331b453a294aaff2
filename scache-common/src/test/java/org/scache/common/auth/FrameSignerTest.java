package org.scache.common.auth;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.scache.common.protocol.MessageType;
import org.scache.common.testing.NettyLeakExtension;

/** The proof covers every signed field and only verifies with the signer's own secret. */
@ExtendWith(NettyLeakExtension.class)
class FrameSignerTest {
  private static final byte[] SECRET = "s3cret".getBytes(StandardCharsets.UTF_8);
  private static final Credentials APP = Credentials.application("app-1", SECRET);
  private static final byte[] META = "some metadata bytes".getBytes(StandardCharsets.UTF_8);
  private static final int TYPE = MessageType.PUT_BLOCK.id();
  private static final byte[] NONCE = "connection-nonce".getBytes(StandardCharsets.UTF_8);

  private static byte[] sign(Credentials c, int type, long requestId, long payloadLength, byte[] meta) {
    return sign(c, type, requestId, payloadLength, NONCE, meta);
  }

  private static byte[] sign(Credentials c, int type, long requestId, long payloadLength, byte[] nonce, byte[] meta) {
    return FrameSigner.sign(c, type, requestId, payloadLength, nonce, Unpooled.wrappedBuffer(meta));
  }

  private static String hex(byte[] b) {
    StringBuilder sb = new StringBuilder();
    for (byte x : b) {
      sb.append(String.format("%02x", x));
    }
    return sb.toString();
  }

  @Test
  void sign_sameFields_givesSameProofOfHmacLength() {
    byte[] a = sign(APP, TYPE, 42, 1000, META);
    assertEquals(FrameSigner.PROOF_LENGTH, a.length);
    assertArrayEquals(a, sign(APP, TYPE, 42, 1000, META.clone()));
  }

  @Test
  void sign_anySignedFieldChanged_changesProof() {
    Set<String> proofs = new HashSet<>();
    proofs.add(hex(sign(APP, TYPE, 42, 1000, META)));
    assertTrue(proofs.add(hex(sign(APP, MessageType.GET_BLOCK.id(), 42, 1000, META))), "type");
    assertTrue(proofs.add(hex(sign(APP, TYPE, 43, 1000, META))), "request id");
    assertTrue(proofs.add(hex(sign(APP, TYPE, 42L | (1L << 40), 1000, META))), "high request id bit");
    assertTrue(proofs.add(hex(sign(APP, TYPE, 42, 1001, META))), "payload length");
    assertTrue(proofs.add(hex(sign(APP, TYPE, 42, 0, META))), "payload length zero");
    assertTrue(proofs.add(hex(sign(APP, TYPE, 42, 1000, "another-nonce!!!".getBytes(StandardCharsets.UTF_8), META))),
        "the connection's nonce");
    assertTrue(proofs.add(hex(sign(APP, TYPE, 42, 1000, Arrays.copyOf(META, META.length - 1)))), "meta truncated");
    assertTrue(proofs.add(hex(sign(APP, TYPE, 42, 1000, Arrays.copyOf(META, META.length + 1)))), "meta extended");
    for (int i = 0; i < META.length; i++) {
      byte[] changed = META.clone();
      changed[i] ^= 1;
      assertTrue(proofs.add(hex(sign(APP, TYPE, 42, 1000, changed))), "meta byte " + i);
    }
  }

  @Test
  void sign_otherSecret_changesProof() {
    Credentials other = Credentials.application("app-1", "s3creT".getBytes(StandardCharsets.UTF_8));
    assertFalse(Arrays.equals(sign(APP, TYPE, 1, 2, META), sign(other, TYPE, 1, 2, META)));
  }

  @Test
  void verify_rightSecret_acceptsAndWrongSecretOrAlteredField_rejects() {
    byte[] proof = sign(APP, TYPE, 7, 99, META);
    assertTrue(FrameSigner.verify(SECRET, proof, TYPE, 7, 99, NONCE, Unpooled.wrappedBuffer(META)));
    assertFalse(FrameSigner.verify("other".getBytes(StandardCharsets.UTF_8), proof, TYPE, 7, 99, NONCE,
        Unpooled.wrappedBuffer(META)));
    assertFalse(FrameSigner.verify(SECRET, proof, TYPE, 8, 99, NONCE, Unpooled.wrappedBuffer(META)));
    assertFalse(FrameSigner.verify(SECRET, proof, TYPE, 7, 100, NONCE, Unpooled.wrappedBuffer(META)));
    assertFalse(FrameSigner.verify(SECRET, Arrays.copyOf(proof, 31), TYPE, 7, 99, NONCE, Unpooled.wrappedBuffer(META)));
    assertFalse(FrameSigner.verify(SECRET, new byte[0], TYPE, 7, 99, NONCE, Unpooled.wrappedBuffer(META)));
  }

  @Test
  void sign_signsOnlyReadableBytesAndLeavesIndexesAlone() {
    ByteBuf meta = Unpooled.buffer();
    meta.writeBytes(new byte[] {9, 9, 9}).writeBytes(META).writeBytes(new byte[] {8});
    meta.setIndex(3, 3 + META.length);
    byte[] proof = FrameSigner.sign(APP, TYPE, 1, 2, NONCE, meta);
    assertEquals(3, meta.readerIndex());
    assertEquals(3 + META.length, meta.writerIndex());
    assertArrayEquals(sign(APP, TYPE, 1, 2, META), proof);
    meta.release();
  }

  @Test
  void sign_directBuffer_sameProofAsHeap() {
    ByteBuf direct = Unpooled.directBuffer().writeBytes(META);
    try {
      assertArrayEquals(sign(APP, TYPE, 5, 6, META), FrameSigner.sign(APP, TYPE, 5, 6, NONCE, direct));
    } finally {
      direct.release();
    }
  }

  @Test
  void credentials_emptySecretOrApplicationId_isRejected() {
    assertThrows(IllegalArgumentException.class, () -> Credentials.application("app-1", new byte[0]));
    assertThrows(IllegalArgumentException.class, () -> Credentials.cluster(new byte[0]));
    assertThrows(IllegalArgumentException.class, () -> Credentials.application("", SECRET));
  }

  @Test
  void credentials_secretIsCopiedInAndOut() {
    byte[] secret = SECRET.clone();
    Credentials c = Credentials.application("app-1", secret);
    secret[0] = 'X';
    assertTrue(c.secretEquals(SECRET));
    c.secretCopy()[0] = 'Y';
    assertTrue(c.secretEquals(SECRET));
    assertFalse(c.secretEquals(secret));
  }

  @Test
  void credentials_principalsAndEquality() {
    Credentials cluster = Credentials.cluster(SECRET);
    assertTrue(cluster.isCluster());
    assertEquals(Credentials.CLUSTER, cluster.principal());
    assertFalse(APP.isCluster());
    assertEquals("app-1", APP.principal());
    assertEquals(APP, Credentials.application("app-1", SECRET.clone()));
    assertNotEquals(APP, cluster);
    assertNotEquals(APP, Credentials.application("app-1", "other".getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void credentials_toString_neverShowsTheSecret() {
    assertFalse(APP.toString().contains("s3cret"), APP.toString());
    assertTrue(APP.toString().contains("app-1"));
  }
}
