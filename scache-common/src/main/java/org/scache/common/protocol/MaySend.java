package org.scache.common.protocol;

/**
 * Who may send a request of a type: each {@link MessageType} declares it, and one
 * {@code RequestAuthorizer} applies it on the master and on every worker before a request reaches
 * its role.
 */
public enum MaySend {
  /** SCache daemons only: the frame is signed with the cluster secret. */
  CLUSTER,
  /**
   * The application the request acts for ({@link Message.ForApplication}), signed with its secret,
   * or a daemon on its behalf, signed with the cluster secret.
   */
  APPLICATION_OR_CLUSTER,
  /** An application registering itself: signed with the secret the request carries, or by a daemon. */
  REGISTERING_APPLICATION,
  /**
   * Whoever holds what the request gives back on its connection (a lease, a pin): the role knows the
   * holder and checks the frame for it.
   */
  HOLDER,
  /** Anyone: the request changes nothing and reveals no application's data. */
  ANYONE,
  /** Nobody: the type is an answer, never a request. */
  NOBODY
}
