"""nztax_build: the batch pipeline (crawl -> parse -> chunk -> embed -> index -> answer FAQs -> render).

May import `nztax` (the function side); `nztax` never imports this package.
"""
