/**
 * The default taxonomy, with the ids the original service's clients already know (1-22), then
 * "Uncategorised" for books whose subjects match none. Frozen: later changes go in a new migration.
 */
export const DEFAULT_CATEGORIES = [
  'ComputerScience',
  'SocialSciences',
  'Economics',
  'Education',
  'Engineering',
  'Environment',
  'Geography',
  'History',
  'Laws',
  'LifeSciences',
  'Literature',
  'Biomedicine',
  'BusinessandManagement',
  'EarthSciences',
  'MaterialsScience',
  'Mathematics',
  'MedicineAndPublicHealth',
  'Philosophy',
  'Physics',
  'PoliticalScienceAndInternationalRelations',
  'Psychology',
  'Statistics',
  'Uncategorised',
] as const;

export const UNCATEGORISED_ID = DEFAULT_CATEGORIES.indexOf('Uncategorised') + 1;
