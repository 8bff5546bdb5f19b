/**
 * The FAWN-KV client. {@link org.fawnpack.kv.client.FawnKvClient} (get, put, delete, and their
 * batched forms) and {@link org.fawnpack.kv.client.KvException} are the public API, with
 * {@link org.fawnpack.kv.auth.ClusterSecret} and {@link org.fawnpack.kv.auth.TlsCredentials}
 * to connect: marked {@code @InterfaceAudience.Public}, kept compatible within a major
 * version. Everything else in this jar is internal ({@code @InterfaceAudience.Private}).
 */
package org.fawnpack.kv.client;
