"""``cube4-value``: a value network trained here on the 4×4×4, searched by the shared searches."""
