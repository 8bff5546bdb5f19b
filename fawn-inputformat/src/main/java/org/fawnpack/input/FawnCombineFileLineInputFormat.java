package org.fawnpack.input;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * Like {@link FawnCombineTextInputFormat}, but the key says where each line came from: its
 * file and byte offset ({@link FileLineKey}). For jobs that must group or label lines by source.
 */
public class FawnCombineFileLineInputFormat extends AbstractFawnCombineInputFormat<FileLineKey> {

  @Override
  public RecordReader<FileLineKey, Text> createRecordReader(InputSplit split,
      TaskAttemptContext context) {
    return new CombinedLineRecordReader<>(new CombinedLineRecordReader.KeyMaker<FileLineKey>() {
      // The reader passes the split's own Path object for every line of a chunk: name it once.
      private Path lastFile;
      private String lastName;

      @Override
      public FileLineKey newKey() {
        return new FileLineKey();
      }

      @Override
      public void set(FileLineKey key, Path file, long offset) {
        if (file != lastFile) {
          lastFile = file;
          lastName = file.toString();
        }
        key.set(lastName, offset);
      }
    });
  }
}
