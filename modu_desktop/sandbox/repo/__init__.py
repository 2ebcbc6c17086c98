"""The sandbox's repository: a bare git repository read and written through dulwich, and what a
new one is filled with (the sample brochure in ``seed_data/``)."""
