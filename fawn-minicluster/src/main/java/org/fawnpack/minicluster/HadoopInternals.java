package org.fawnpack.minicluster;

import java.lang.reflect.Field;
import java.lang.reflect.Method;

/**
 * Reads fields and calls methods Hadoop does not publish, for the few places where several
 * daemons in one JVM need a hand (checked against Hadoop 3.5.0). A missing member fails naming
 * it, so a Hadoop upgrade that renames one shows up at cluster start, not as a silent gap.
 */
final class HadoopInternals {

  private HadoopInternals() {}

  static Object read(Object target, String fieldName) {
    for (Class<?> c = target.getClass(); c != null; c = c.getSuperclass()) {
      try {
        Field field = c.getDeclaredField(fieldName);
        field.setAccessible(true);
        return field.get(target);
      } catch (NoSuchFieldException e) {
        // look in the superclass
      } catch (IllegalAccessException e) {
        throw new IllegalStateException("cannot read " + c.getName() + "." + fieldName, e);
      }
    }
    throw new IllegalStateException(target.getClass().getName() + " has no field " + fieldName
        + " (a Hadoop version other than 3.5.0?)");
  }

  static Object call(Object target, String methodName) {
    for (Class<?> c = target.getClass(); c != null; c = c.getSuperclass()) {
      try {
        Method method = c.getDeclaredMethod(methodName);
        method.setAccessible(true);
        return method.invoke(target);
      } catch (NoSuchMethodException e) {
        // look in the superclass (the mini cluster's RM is an anonymous subclass)
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("cannot call " + c.getName() + "." + methodName + "()",
            e);
      }
    }
    throw new IllegalStateException(target.getClass().getName() + " has no method " + methodName
        + "() (a Hadoop version other than 3.5.0?)");
  }
}
