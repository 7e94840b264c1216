"""``cube2-policy``: a policy network trained here on the 2×2×2, searched by the shared searches."""
