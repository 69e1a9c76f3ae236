// Moved to @/components/cms/cms-page. The room (moved in parallel) still imports this path: the lead re-points
// its imports after the merge and deletes this file.
export * from '@/components/cms/cms-page';
