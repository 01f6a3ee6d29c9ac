"""The go SDK: target.py renders it, naming.py names things, runtime/ and templates/ are its sources."""
