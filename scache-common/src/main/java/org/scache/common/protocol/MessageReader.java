package org.scache.common.protocol;

/** Reads the fields of one message type from a frame's metadata: each {@link MessageType} names its own. */
@FunctionalInterface
interface MessageReader {
  Message read(WireReader in) throws MalformedMessageException;
}
