package org.scache.common.protocol;

/** A frame's metadata could not be read as the message its type announces. */
public final class MalformedMessageException extends Exception {
  public MalformedMessageException(String message) {
    super(message);
  }
}
