export {
  subjectAccessReviewDefinition,
  selfSubjectAccessReviewDefinition,
  localSubjectAccessReviewDefinition,
  selfSubjectRulesReviewDefinition,
  selfSubjectRulesReviewBadRequest,
  localSubjectAccessReviewBadRequest,
} from './reviews';
export * from './review-schema';
export {
  ResourceAttributes,
  NonResourceAttributes,
  SubjectAccessReviewSpec,
  validateSubjectAccessReviewSpec,
  validateSelfSubjectAccessReviewSpec,
  validateSubjectAccessReview,
  validateSelfSubjectAccessReview,
  validateLocalSubjectAccessReview,
} from './review-validation';
