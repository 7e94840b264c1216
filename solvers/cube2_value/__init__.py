"""``cube2-value``: a value network trained here on the 2×2×2, searched by the shared searches."""
