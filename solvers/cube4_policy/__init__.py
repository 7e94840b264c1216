"""``cube4-policy``: a policy network trained here on the 4×4×4, searched by the shared searches."""
