"""The git engine behind :class:`fakeservice.repository.git.Repository`, one job per
module: constants and records, paths and names, text formats, the object store, cached
object reads, refs, history, file reads, blame, diffs, the tree editor and file commits.
"""
