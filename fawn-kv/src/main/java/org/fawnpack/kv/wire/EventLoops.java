package org.fawnpack.kv.wire;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * The event loops every FAWN-KV socket of this JVM runs on, servers and clients alike: one
 * thread per core (a wimpy node has one or two), daemons, made on first use and kept for the
 * JVM's life as a JVM-wide resource. Epoll when Netty's native transport is on the class path
 * and loads (it is not in Hadoop's or ZooKeeper's jars by default), NIO otherwise.
 */
final class EventLoops {
  private static final boolean EPOLL = Epoll.isAvailable();
  private static volatile EventLoopGroup group;

  private EventLoops() {}

  static EventLoopGroup group() {
    EventLoopGroup made = group;
    if (made == null) {
      synchronized (EventLoops.class) {
        made = group;
        if (made == null) {
          int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
          DefaultThreadFactory factory = new DefaultThreadFactory("fawn-kv-io", true);
          made = EPOLL ? new EpollEventLoopGroup(threads, factory)
              : new NioEventLoopGroup(threads, factory);
          group = made;
        }
      }
    }
    return made;
  }

  static Class<? extends ServerChannel> serverChannel() {
    return EPOLL ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
  }

  static Class<? extends Channel> channel() {
    return EPOLL ? EpollSocketChannel.class : NioSocketChannel.class;
  }

  /** A client channel of the transport in use, not yet registered with a loop. */
  static Channel newChannel() {
    return EPOLL ? new EpollSocketChannel() : new NioSocketChannel();
  }

  /** "epoll" or "nio", for logs and the benchmark's table. */
  static String transport() {
    return EPOLL ? "epoll" : "nio";
  }
}
