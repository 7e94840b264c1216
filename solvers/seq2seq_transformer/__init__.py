"""``seq2seq-transformer``: seed 000's encoder-decoder that writes the reversed scramble."""
